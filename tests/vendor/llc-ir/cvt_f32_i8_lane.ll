; narrowing f32 -> i8 toward zero, saturated (llvm.tpc.convert, target int8,
; RZ, lane_sel 2: switches 0x10402): f32 lane i to i8 element 4i + 2, the
; other elements keep the income (zero)
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %xf = mul i32 %i, 64
  %cf = insertelement <5 x i32> zeroinitializer, i32 %xf, i32 0
  %xb = mul i32 %i, 256
  %cb = insertelement <5 x i32> zeroinitializer, i32 %xb, i32 0
  %a = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %cf, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %r = call <256 x i8> @llvm.tpc.convert.v256i8.v64f32.i1(<64 x float> %a, i8 0, i32 66562, <256 x i8> zeroinitializer, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v256i8(<5 x i32> %cb, i8 1, <256 x i8> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32>, i8, i32, <64 x float>, i1, i1)
declare <256 x i8> @llvm.tpc.convert.v256i8.v64f32.i1(<64 x float>, i8, i32, <256 x i8>, i1, i1)
declare void @llvm.tpc.st.tnsr.v256i8(<5 x i32>, i8, <256 x i8>, i32, i1, i1)

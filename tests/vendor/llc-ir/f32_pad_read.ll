; out[y] = a[y] + a[y + 1] row by row (2-D, dim 1 the rows): the last row
; reads row h, outside the tensor, which loads as the padding value 0.
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %f1 = extractelement <5 x i32> %off, i32 1
  %n1 = extractelement <5 x i32> %size, i32 1
  %l1 = add i32 %f1, %n1
  br label %body

body:
  %y = phi i32 [ %f1, %entry ], [ %ynext, %body ]
  %c = insertelement <5 x i32> zeroinitializer, i32 %y, i32 1
  %ynext = add i32 %y, 1
  %cn = insertelement <5 x i32> zeroinitializer, i32 %ynext, i32 1
  %a = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %b = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %cn, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %r = fadd <64 x float> %a, %b
  call void @llvm.tpc.st.tnsr.v64f32(<5 x i32> %c, i8 1, <64 x float> %r, i32 0, i1 true, i1 false)
  %more = icmp slt i32 %ynext, %l1
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32>, i8, i32, <64 x float>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64f32(<5 x i32>, i8, <64 x float>, i32, i1, i1)

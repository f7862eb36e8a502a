; out[x] = sum over y < h of a[y][x], added in order y = 0, 1, ...: a 2-D
; tensor reduced along dim 1 by a loop inside the kernel (h a scalar
; argument), the index space over dim 0 only.
target triple = "tpc"

define void @main(i32 %h) {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %col

col:
  %i = phi i32 [ %first, %entry ], [ %inext, %coldone ]
  %x = mul i32 %i, 64
  %c0 = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  br label %row

row:
  %y = phi i32 [ 0, %col ], [ %ynext, %row ]
  %acc = phi <64 x float> [ zeroinitializer, %col ], [ %acc2, %row ]
  %c = insertelement <5 x i32> %c0, i32 %y, i32 1
  %a = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %acc2 = fadd <64 x float> %acc, %a
  %ynext = add i32 %y, 1
  %ymore = icmp slt i32 %ynext, %h
  br i1 %ymore, label %row, label %coldone

coldone:
  call void @llvm.tpc.st.tnsr.v64f32(<5 x i32> %c0, i8 1, <64 x float> %acc2, i32 0, i1 true, i1 false)
  %inext = add i32 %i, 1
  %more = icmp slt i32 %inext, %last
  br i1 %more, label %col, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32>, i8, i32, <64 x float>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64f32(<5 x i32>, i8, <64 x float>, i32, i1, i1)
